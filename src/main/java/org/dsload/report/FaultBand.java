package org.dsload.report;

import java.awt.AlphaComposite;
import java.awt.Color;
import java.awt.Composite;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;

import org.knowm.xchart.internal.chartpart.Annotation;

/** A shaded band over a chart's plot from one x value to another, named at its top: a fault window. */
final class FaultBand extends Annotation {
    private static final Color FILL = new Color(230, 80, 60);
    private final double from;
    private final double to;
    private final String name;

    FaultBand(double from, double to, String name) {
        super(false);
        this.from = from;
        this.to = to;
        this.name = name;
    }

    @Override
    public void paint(Graphics2D g) {
        if (!isVisible) {
            return;
        }
        int x1 = getXAxisScreenValue(from);
        int x2 = Math.max(x1 + 1, getXAxisScreenValue(to));
        int top = getYAxisScreenValueForMax();
        int bottom = getYAxisScreenValueForMin();
        int y = Math.min(top, bottom);
        int h = Math.abs(bottom - top);
        Composite before = g.getComposite();
        g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, 0.15f));
        g.setColor(FILL);
        g.fillRect(x1, y, x2 - x1, h);
        g.setComposite(before);
        g.setColor(FILL.darker());
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        // neighbouring short windows would overwrite each other's names: a narrow band shows its number only
        String label = g.getFontMetrics().stringWidth(name) + 4 <= x2 - x1 || !name.contains(" ") ? name
                : name.substring(0, name.indexOf(' '));
        g.drawString(label, x1 + 2, y + 11);
        bounds = new Rectangle2D.Double(x1, y, x2 - x1, h);
    }
}
