package dev.schedsim.engine.api;

/**
 * Thrown when a run exceeds its event budget: a run is stopped at 20 times its estimated events (docs/api.md,
 * "Limits").
 */
public class BudgetExceededException extends RuntimeException {
    private final long budget;

    public BudgetExceededException(long budget) {
        super("the run exceeded its budget of " + budget + " events");
        this.budget = budget;
    }

    public long budget() {
        return budget;
    }
}
