package dev.schedsim.kubernetes;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource quantity ("500m", "1", "2.5", "0.1", "128Mi", "1e3") as apimachinery's {@code resource.ParseQuantity}
 * reads it (k8s.io/apimachinery/pkg/api/resource/quantity.go): a signed decimal number, then a binary-SI suffix
 * (Ki … Ei), a decimal-SI suffix (n, u, m, "", k, M, G, T, P, E) or a decimal exponent (e3, E-2).
 */
public final class Quantity {
    /** The number, then everything after it (the suffix), as quantity.go's parseQuantityString splits them. */
    private static final Pattern FORM = Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(.*)");
    private static final Pattern EXPONENT = Pattern.compile("[eE]([+-]?[0-9]+)");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")), Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")), Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private final BigDecimal value;

    private Quantity(BigDecimal value) {
        this.value = value;
    }

    /** The quantity, or null when {@code text} is not one (quantity.go's ErrFormatWrong / ErrSuffix). */
    public static Quantity parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return null;
        }
        BigDecimal number = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
        String suffix = m.group(2);
        BigDecimal scale = SUFFIXES.get(suffix);
        if (scale == null) {
            Matcher e = EXPONENT.matcher(suffix);
            if (!e.matches() || e.group(1).length() > 4) {
                return null;
            }
            scale = BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(e.group(1)));
        }
        return new Quantity(number.multiply(scale));
    }

    public boolean negative() {
        return value.signum() < 0;
    }

    public boolean isZero() {
        return value.signum() == 0;
    }

    /**
     * {@code Quantity.MilliValue()}: {@code ScaledValue(Milli)}, which rounds up ("ceil(q / 10^scale)"), so that
     * "0.0001" is 1m; capped at Long.MAX_VALUE.
     */
    public long milliValue() {
        BigDecimal milli = value.movePointRight(3).setScale(0, RoundingMode.CEILING);
        return milli.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : milli.longValueExact();
    }

    /** {@code Quantity.Cmp() == 0}: the same amount however written ("1" and "1000m"). */
    public boolean sameAs(Quantity other) {
        return value.compareTo(other.value) == 0;
    }

    @Override
    public String toString() {
        return value.stripTrailingZeros().toPlainString();
    }
}
