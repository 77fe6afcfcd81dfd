package dev.schedsim.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code schedsim.metrics.*}: how many recent simulations keep result gauges (default 100). */
@ConfigurationProperties("schedsim.metrics")
record MetricsProperties(Integer resultSimulations) {
    MetricsProperties {
        resultSimulations = resultSimulations == null ? 100 : resultSimulations;
    }
}
