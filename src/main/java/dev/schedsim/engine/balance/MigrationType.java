package dev.schedsim.engine.balance;

/** enum migration_type: what calculate_imbalance() asks detach_tasks() to move. */
enum MigrationType {
    /** migrate_load: load (task_h_load). */
    LOAD,
    /** migrate_util: utilization. */
    UTIL,
    /** migrate_task: a number of tasks. */
    TASK
}
