-- The large JSON documents move out of the rows that change while a simulation runs. H2's MVStore keeps a
-- varchar inline in its row and writes a changed row's whole B-tree page at each commit, neighbours included: a
-- progress update of a running simulation rewrote the stored results of other simulations in its page (a 320-run
-- sweep's result is ~400 KB), and each run's finish its neighbours' reports. Eleven 320-run sweeps took 3.8 s
-- for the first and 10.5 s for the eleventh and left a 6.7 GB database file. A document is now written once, in
-- a table of its own that no update touches. Portable between H2 (2.x) and PostgreSQL, like V1.
create table simulation_result (
    simulation_id    varchar(36)              not null primary key references simulation (id) on delete cascade,
    result_json      varchar(10485760)        not null
);

insert into simulation_result (simulation_id, result_json)
    select id, result_json from simulation where result_json is not null;

alter table simulation drop column result_json;

create table simulation_run_report (
    run_id           varchar(48)              not null primary key references simulation_run (id) on delete cascade,
    simulation_id    varchar(36)              not null,
    run_index        integer                  not null,
    report_json      varchar(10485760)        not null
);

create index simulation_run_report_simulation on simulation_run_report (simulation_id, run_index);

insert into simulation_run_report (run_id, simulation_id, run_index, report_json)
    select id, simulation_id, run_index, report_json from simulation_run where report_json is not null;

alter table simulation_run drop column report_json;
