/**
 * The limits advisor ({@code /api/v1/advice}, docs/advisor.md): the request and its rules, the bisection over
 * the quota ({@link dev.schedsim.advice.AdviceSearch}), the driver that submits each step as a simulation and
 * evaluates its result, the stored advice, and its report page; from observed counters, the fit that finds the
 * workloads reproducing them ({@link dev.schedsim.advice.ObservedFit}) before the search sizes them all.
 */
package dev.schedsim.advice;
