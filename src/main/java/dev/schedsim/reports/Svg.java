package dev.schedsim.reports;

import java.util.List;
import java.util.Locale;

/** A small, deterministic SVG line chart: time on x, one polyline per series, axes with round ticks, a legend. */
public final class Svg {
    static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#7f7f7f", "#bcbd22"};
    private static final int W = 880;
    private static final int H = 260;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 30;
    private static final int BOTTOM = 44;

    /** One line: a label and a value per bucket. */
    record Series(String label, List<Double> values) {
    }

    private Svg() {
    }

    /**
     * @param title    chart title
     * @param yLabel   y-axis label
     * @param bucketUs bucket width (x of value i is i * bucketUs, plotted at the bucket's middle)
     * @param yMax     top of the y axis (≥ the largest value; shared by the variants' charts so they compare)
     */
    static String chart(String title, String yLabel, long bucketUs, List<Series> series, double yMax) {
        int n = 0;
        for (Series s : series) {
            n = Math.max(n, s.values().size());
        }
        double xMaxUs = Math.max(1, (double) n * bucketUs);
        double top = niceCeil(yMax <= 0 ? 1 : yMax);
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder b = open(title);
        yGrid(b, top, pw, ph);
        // x ticks in seconds or milliseconds
        boolean seconds = xMaxUs >= 2_000_000;
        double unit = seconds ? 1e6 : 1e3;
        double step = niceStep(xMaxUs / unit / 6);
        for (double t = 0; t <= xMaxUs / unit + 1e-9; t += step) {
            double x = LEFT + pw * (t * unit / xMaxUs);
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333333\"/>",
                    x, TOP + ph, x, TOP + ph + 4));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
                    TOP + ph + 17, num(t)));
        }
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>", LEFT,
                TOP, LEFT, TOP + ph));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">simulated time (%s)</text>",
                LEFT + pw / 2, H - 8, seconds ? "s" : "ms"));
        b.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 14 %d)\">%s</text>", TOP + ph / 2, TOP + ph / 2, esc(yLabel)));
        // lines
        for (int s = 0; s < series.size(); s++) {
            List<Double> vs = series.get(s).values();
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < vs.size(); i++) {
                double x = LEFT + pw * ((i + 0.5) * bucketUs / xMaxUs);
                double y = TOP + ph - ph * Math.min(1, Math.max(0, vs.get(i) / top));
                pts.append(String.format(Locale.ROOT, "%s%.1f,%.1f", i == 0 ? "" : " ", x, y));
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                    + "points=\"%s\"/>", COLOURS[s % COLOURS.length], pts));
        }
        legend(b, series.stream().map(Series::label).toList(), LEFT + pw);
        b.append("</svg>");
        return b.toString();
    }

    /** The chart's frame: the svg element, its white background and its title. */
    private static StringBuilder open(String title) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\" font-family=\"sans-serif\" font-size=\"12\">",
                W, H, W, H, esc(title)));
        b.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>", W, H));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>",
                LEFT, esc(title)));
        return b;
    }

    /** Five horizontal grid lines from 0 to {@code top}, with their values. */
    private static void yGrid(StringBuilder b, double top, int pw, int ph) {
        for (int i = 0; i <= 4; i++) {
            double y = TOP + ph - ph * i / 4.0;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>",
                    LEFT, y, LEFT + pw, y, i == 0 ? "#333333" : "#dddddd"));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 6,
                    y + 4, num(top * i / 4)));
        }
    }

    /** The series' labels, top right, in their colours. */
    private static void legend(StringBuilder b, List<String> labels, int right) {
        int lx = right;
        for (int s = labels.size() - 1; s >= 0; s--) {
            String label = labels.get(s);
            int w = 22 + 7 * label.length();
            lx -= w + 10;
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"8\" width=\"14\" height=\"4\" fill=\"%s\" "
                    + "transform=\"translate(0 2)\"/>", lx, COLOURS[s % COLOURS.length]));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"16\">%s</text>", lx + 18, esc(label)));
        }
    }

    /** One line of an x-y chart: a label and its points (x, y), in x order. */
    public record XySeries(String label, List<double[]> points) {
    }

    /**
     * A line chart of y against x (the advisor's trade-off: a figure against the quota), each point marked; a
     * horizontal dashed line at {@code limit} (the objective) when it is not null.
     */
    public static String xy(String title, String xLabel, String yLabel, List<XySeries> series, Double limit) {
        double xMin = Double.MAX_VALUE;
        double xMax = -Double.MAX_VALUE;
        double yMax = limit == null ? 0 : limit;
        for (XySeries s : series) {
            for (double[] p : s.points()) {
                xMin = Math.min(xMin, p[0]);
                xMax = Math.max(xMax, p[0]);
                yMax = Math.max(yMax, p[1]);
            }
        }
        if (xMin > xMax) {
            xMin = 0;
            xMax = 1;
        }
        double span = Math.max(1e-9, xMax - xMin);
        double top = niceCeil(yMax <= 0 ? 1 : yMax);
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder b = open(title);
        yGrid(b, top, pw, ph);
        double step = niceStep(span / 6);
        for (double t = Math.ceil(xMin / step) * step; t <= xMax + 1e-9; t += step) {
            double x = LEFT + pw * ((t - xMin) / span);
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333333\"/>",
                    x, TOP + ph, x, TOP + ph + 4));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
                    TOP + ph + 17, num(t)));
        }
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>", LEFT,
                TOP, LEFT, TOP + ph));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                LEFT + pw / 2, H - 8, esc(xLabel)));
        b.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 14 %d)\">%s</text>", TOP + ph / 2, TOP + ph / 2, esc(yLabel)));
        if (limit != null) {
            double y = TOP + ph - ph * Math.min(1, Math.max(0, limit / top));
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555555\" "
                    + "stroke-dasharray=\"6 4\"/>", LEFT, y, LEFT + pw, y));
        }
        for (int s = 0; s < series.size(); s++) {
            StringBuilder pts = new StringBuilder();
            String colour = COLOURS[s % COLOURS.length];
            for (double[] p : series.get(s).points()) {
                double x = LEFT + pw * ((p[0] - xMin) / span);
                double y = TOP + ph - ph * Math.min(1, Math.max(0, p[1] / top));
                pts.append(String.format(Locale.ROOT, "%s%.1f,%.1f", pts.length() == 0 ? "" : " ", x, y));
                b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x, y,
                        colour));
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                    + "points=\"%s\"/>", colour, pts));
        }
        legend(b, series.stream().map(XySeries::label).toList(), LEFT + pw);
        b.append("</svg>");
        return b.toString();
    }

    static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.2, 1.6, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * p >= v - 1e-12) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String num(double v) {
        if (Math.abs(v - Math.rint(v)) < 1e-9) {
            return String.format(Locale.ROOT, "%d", (long) Math.rint(v));
        }
        String s = String.format(Locale.ROOT, Math.abs(v) < 1 ? "%.3f" : "%.2f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    public static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
