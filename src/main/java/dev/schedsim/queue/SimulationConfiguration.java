package dev.schedsim.queue;

import dev.schedsim.SchedsimProperties;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The time source and settings of the simulation feature. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SchedsimProperties.class)
class SimulationConfiguration {
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
