package dev.schedsim;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;

/** SchedSim: a Linux fair-scheduler and cgroup CPU bandwidth simulator as a REST service. */
// No generated user and password: clients authenticate with API keys only (dev.schedsim.security).
@SpringBootApplication(exclude = UserDetailsServiceAutoConfiguration.class)
public class SchedSimApplication {
    public static void main(String[] args) {
        SpringApplication.run(SchedSimApplication.class, args);
    }
}
