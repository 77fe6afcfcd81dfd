-- A job's plan (each variant's engine spec, seeds, repetitions, event budget; dev.schedsim.request.SimulationPlan,
-- versioned inside the JSON) is stored once, at submission, instead of being planned again from the request by
-- every claim, report and trace. A table of its own that no update touches, like the documents of V3. Rows
-- submitted before this migration have none: they are planned from their request as before. Portable between
-- H2 (2.x) and PostgreSQL, like V1.
create table simulation_plan (
    simulation_id    varchar(36)              not null primary key references simulation (id) on delete cascade,
    plan_json        varchar(10485760)        not null
);
