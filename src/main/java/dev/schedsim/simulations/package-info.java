/**
 * {@code /api/v1/simulations}: submit (validation of the whole request into its accepted form and its plan,
 * {@link dev.schedsim.simulations.RequestValidator}), read, list, cancel and delete. The one submission path
 * ({@link dev.schedsim.simulations.Submissions}) is shared with the scenario library and the limits advisor.
 */
package dev.schedsim.simulations;
