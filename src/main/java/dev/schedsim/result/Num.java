package dev.schedsim.result;

import java.math.BigDecimal;
import java.math.RoundingMode;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

/**
 * The document's number format: 3 decimals half-even, integral values written as integers, non-finite values as
 * null. Values are kept rounded ({@link #round}) so that means over repetitions average what the runs show.
 */
public final class Num extends ValueSerializer<Double> {
    /** The value rounded to 3 decimals half-even; null when it is not finite. */
    public static Double round(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return null;
        }
        BigDecimal b = BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN);
        if (b.signum() == 0) {
            return 0.0;
        }
        if (integral(b)) {
            return (double) b.longValue();
        }
        return b.doubleValue();
    }

    /** An integer value as the document holds it. */
    public static Double of(long v) {
        return (double) v;
    }

    private static boolean integral(BigDecimal b) {
        return b.stripTrailingZeros().scale() <= 0 && b.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0;
    }

    @Override
    public void serialize(Double value, JsonGenerator gen, SerializationContext ctxt) {
        Double d = round(value);
        if (d == null) {
            gen.writeNull();
            return;
        }
        BigDecimal b = BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN);
        if (b.signum() == 0) {
            gen.writeNumber(0L);
        } else if (integral(b)) {
            gen.writeNumber(b.longValue());
        } else {
            gen.writeNumber(b.doubleValue());
        }
    }
}
