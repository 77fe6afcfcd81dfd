-- A simulation's runs (variant x repetition) are the units of work the workers claim: one row per run, claimed
-- with FOR UPDATE SKIP LOCKED, kept alive by a heartbeat, requeued when its worker's heartbeat goes stale.
-- The run's engine report is stored (report_json) so that whichever worker finishes the last run builds the
-- result document from all of them. Portable between H2 (2.x) and PostgreSQL, like V1.
create table simulation_run (
    id               varchar(48)              not null primary key,
    simulation_id    varchar(36)              not null references simulation (id) on delete cascade,
    run_index        integer                  not null,
    status           varchar(16)              not null,
    created_at       timestamp with time zone not null,
    started_at       timestamp with time zone,
    finished_at      timestamp with time zone,
    worker_id        varchar(128),
    heartbeat_at     timestamp with time zone,
    attempts         integer                  not null,
    progress         double precision         not null,
    events           bigint                   not null,
    simulated_us     bigint                   not null,
    report_json      varchar(10485760)
);

create unique index simulation_run_index on simulation_run (simulation_id, run_index);
create index simulation_run_status_created on simulation_run (status, created_at);
