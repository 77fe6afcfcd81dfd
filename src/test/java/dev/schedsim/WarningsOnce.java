package dev.schedsim;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Marker;

/**
 * Lets each warning through once per test JVM: a WARN of a logger with a message text (its format, before the
 * arguments) already printed is dropped; every other event is left to the configuration. Named in
 * src/test/resources/logback-test.xml. The service itself prints its warnings at each start, as it should: one
 * start per process there, forty in a test run.
 */
public class WarningsOnce extends TurboFilter {
    /** Static: Spring Boot reconfigures logging at each application start, which makes a new filter. */
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
                              Throwable t) {
        if (level != Level.WARN || format == null || !logger.isEnabledFor(level)) {
            return FilterReply.NEUTRAL;
        }
        return SEEN.add(logger.getName() + '\n' + format) ? FilterReply.NEUTRAL : FilterReply.DENY;
    }
}
