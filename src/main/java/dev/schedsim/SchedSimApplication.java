package dev.schedsim;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** SchedSim: a Linux fair-scheduler and cgroup CPU bandwidth simulator as a REST service. */
@SpringBootApplication
public class SchedSimApplication {
    public static void main(String[] args) {
        SpringApplication.run(SchedSimApplication.class, args);
    }
}
