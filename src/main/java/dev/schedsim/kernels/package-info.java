/**
 * {@code /api/v1/kernel-profiles}: the kernel profiles a request may name and their feature values.
 */
package dev.schedsim.kernels;
