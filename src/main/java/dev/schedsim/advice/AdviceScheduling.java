package dev.schedsim.advice;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** {@link AdviceDriver}'s poll runs on Spring's scheduler. */
@Configuration
@EnableScheduling
class AdviceScheduling {
}
