package org.dsload.chaos;

import java.util.Map;

/** One row of a fault schedule, checked: what, on which target, with what, when and for how long. */
public record PlannedFault(int number, FaultKind kind, Target target, Map<String, String> params, StartSpec start,
        long durationMillis, FaultDriver driver) {

    public PlannedFault {
        params = Map.copyOf(params);
    }

    public String label() {
        return "fault:" + kind.id() + ":" + target.name();
    }

    /** A restart is done when it is applied; every other kind lasts its duration. */
    public boolean instant() {
        return kind.id().equals(org.dsload.report.FaultWindows.INSTANT_KIND);
    }

    public String describe() {
        StringBuilder text = new StringBuilder("#").append(number).append(' ').append(kind.id()).append(" on ")
                .append(target.name());
        if (!params.isEmpty()) {
            text.append(' ').append(params);
        }
        text.append(", ").append(start);
        if (!instant()) {
            text.append(", for ").append(Quantities.format(durationMillis));
        }
        return text.append(", ").append(driver.name()).append(" driver").toString();
    }
}
