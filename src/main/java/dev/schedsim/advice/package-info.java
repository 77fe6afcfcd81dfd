/**
 * The limits advisor ({@code /api/v1/advice}, docs/advisor.md): the request and its rules, the bisection over
 * the quota ({@link dev.schedsim.advice.AdviceSearch}), the driver that submits each step as a simulation and
 * evaluates its result, the stored advice, and its report page.
 */
package dev.schedsim.advice;
