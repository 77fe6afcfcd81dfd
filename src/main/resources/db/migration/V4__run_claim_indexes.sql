-- Indexes for the per-run statements of a sweep. Portable between H2 (2.x) and PostgreSQL, like V1.
-- The claim takes the first queued run in (created_at, simulation_id, run_index) order: with the index on
-- (status, created_at) alone the database sorted every queued run of the sweep at each claim. Its status prefix
-- serves the requeue statements as the old index did.
drop index simulation_run_status_created;
create index simulation_run_claim_order on simulation_run (status, created_at, simulation_id, run_index);
-- "Are all runs of this simulation done?", asked after every run, reads the index instead of the rows.
create index simulation_run_simulation_status on simulation_run (simulation_id, status);
