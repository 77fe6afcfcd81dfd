-- The limits advisor (POST /api/v1/advice): one row per advice, its search state between steps (each step one
-- simulation on the ordinary queue), its answer once it is over. version: optimistic locking, so that of two
-- instances advancing the same advice one wins and the other tries again at its next poll. Portable between H2 and
-- PostgreSQL, like V1. owner: the client that asked (V5's ownership: null is admin-only once security is on).
create table advice (
    id             varchar(36)              not null primary key,
    name           varchar(64),
    status         varchar(16)              not null,
    created_at     timestamp with time zone not null,
    finished_at    timestamp with time zone,
    progress       double precision         not null,
    request_json   varchar(10485760)        not null,
    state_json     varchar(10485760)        not null,
    answer_json    varchar(10485760),
    error_json     varchar(10485760),
    simulation_id  varchar(36),
    owner          varchar(64),
    version        bigint                   not null
);

create index advice_status_created on advice (status, created_at);
create index advice_owner_created on advice (owner, created_at);
