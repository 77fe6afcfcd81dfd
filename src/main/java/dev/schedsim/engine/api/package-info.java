/**
 * What an engine run takes and gives back: {@link dev.schedsim.engine.api.EngineSpec} in,
 * {@link dev.schedsim.engine.api.Report} out, {@link dev.schedsim.engine.api.RunControl} to watch and stop it, and
 * the run's two exceptions ({@link dev.schedsim.engine.api.BudgetExceededException},
 * {@link dev.schedsim.engine.api.RunCancelledException}). Records and exceptions only: it imports {@code engine.spec}
 * and no mechanism, so that core, stats and workload fill these types without importing the entry
 * ({@code dev.schedsim.engine.Engine}), which imports core.
 */
package dev.schedsim.engine.api;
