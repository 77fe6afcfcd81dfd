package dev.schedsim.reports;

import java.util.Locale;

/**
 * Numbers as a reader takes them in: digits grouped in threes (a narrow no-break space, as SI writes them, so a
 * cell never wraps inside a number), times in the unit that keeps them short, CPU time as a number of CPUs.
 */
public final class Units {
    /** What a table shows where a figure is missing or does not apply (an en dash, not a 0). */
    static final String NONE = "–";

    /** U+202F NARROW NO-BREAK SPACE. */
    static final String GROUP = "\u202f";

    private Units() {
    }

    /** {@link Svg#num} with the integer part grouped: 2949073 gives "2 949 073", 0.501 stays "0.501". */
    static String grouped(double v) {
        String s = Svg.num(v);
        int start = s.startsWith("-") ? 1 : 0;
        int dot = s.indexOf('.');
        int end = dot < 0 ? s.length() : dot;
        if (end - start <= 4) { // 1234 reads well as it is; grouping starts at five digits
            return s;
        }
        StringBuilder b = new StringBuilder(s.substring(0, start));
        for (int i = start; i < end; i++) {
            if (i > start && (end - i) % 3 == 0) {
                b.append(GROUP);
            }
            b.append(s.charAt(i));
        }
        return b.append(s.substring(end)).toString();
    }

    /** Microseconds as milliseconds, one decimal below 100 ms, grouped; below 1 ms as µs: "1 032 ms", "4.2 ms", "50 µs". */
    public static String ms(double us) {
        double ms = us / 1000.0;
        if (ms == 0) {
            return "0 ms";
        }
        if (Math.abs(ms) >= 100) {
            return grouped(Math.rint(ms)) + " ms";
        }
        if (Math.abs(ms) >= 1) {
            return grouped(Math.rint(ms * 10) / 10) + " ms";
        }
        return us(us) + " µs";
    }

    /** Microseconds of latency: whole above 100 µs, one decimal below, grouped: "3 249", "50", "3.7". */
    public static String us(double us) {
        return grouped(Math.abs(us) >= 100 ? Math.rint(us) : Math.rint(us * 10) / 10);
    }

    /** CPU time over a span as a number of CPUs, two decimals: "0.51 CPU", "1.47 CPUs". */
    static String cpus(double cpus) {
        return String.format(Locale.ROOT, "%.2f", cpus) + (cpus < 1.005 ? " CPU" : " CPUs");
    }

    /** A share as a whole percent, or one decimal below 10 %: "100 %", "6.5 %". */
    public static String pct(double fraction) {
        double p = fraction * 100;
        return (p >= 10 || p == 0 ? Svg.num(Math.rint(p)) : Svg.num(Math.rint(p * 10) / 10)) + " %";
    }
}
