-- Portable between H2 (2.x) and PostgreSQL: varchar, bigint, double precision, timestamp with time zone.
-- JSON documents are varchar(10485760): the largest varchar PostgreSQL accepts (10 MiB, stored like text) and a
-- plain character string on H2. "text" would be a CLOB on H2 but a varchar on PostgreSQL, which one String
-- mapping cannot validate against on both (ddl-auto=validate).
create table simulation (
    id               varchar(36)              not null primary key,
    name             varchar(64),
    status           varchar(16)              not null,
    created_at       timestamp with time zone not null,
    started_at       timestamp with time zone,
    finished_at      timestamp with time zone,
    progress         double precision         not null,
    request_json     varchar(10485760)        not null,
    result_json      varchar(10485760),
    error_json       varchar(10485760),
    idempotency_key  varchar(255),
    request_hash     varchar(64)              not null,
    worker_id        varchar(128),
    heartbeat_at     timestamp with time zone,
    events           bigint                   not null
);

create unique index simulation_idempotency_key on simulation (idempotency_key);
create index simulation_status_created on simulation (status, created_at);
create index simulation_created on simulation (created_at);

create table saved_topology (
    name            varchar(64)              not null primary key,
    definition_json varchar(10485760)        not null,
    created_at      timestamp with time zone not null
);
