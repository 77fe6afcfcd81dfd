-- The engine events a run is estimated to process (dev.schedsim.request.CostEstimate, of its variant), written
-- when it is queued: a client's queued work is counted in that unit (schedsim.security.max-queued-events-per-client)
-- by summing its queued runs' rows, the same sum on every instance. Null for runs queued before this migration:
-- they count as nothing. Portable between H2 (2.x) and PostgreSQL, like V1.
alter table simulation_run add column estimated_events bigint;
