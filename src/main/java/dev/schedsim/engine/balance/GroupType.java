package dev.schedsim.engine.balance;

/** enum group_type, the cases the model has (no misfit, asym or imbalanced groups), least busy first. */
enum GroupType {
    /** group_has_spare. */
    HAS_SPARE,
    /** group_fully_busy. */
    FULLY_BUSY,
    /** group_overloaded. */
    OVERLOADED
}
