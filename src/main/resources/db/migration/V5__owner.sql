-- Who submitted a simulation and who saved a topology: the name of the API key (schedsim.security.api-keys) the
-- request came with. Null: written while security was off, or before this migration; once security is on such
-- rows are visible to admin keys only (an unknown owner is nobody's). Portable between H2 (2.x) and PostgreSQL.
alter table simulation add column owner varchar(64);
alter table saved_topology add column owner varchar(64);
-- A client's list, newest first, and its submissions of the last minute (schedsim.security.submissions-per-minute).
create index simulation_owner_created on simulation (owner, created_at);
