package org.dsload.chaos;

import org.apache.jmeter.testelement.AbstractTestElement;

/** One row of the Fault Schedule's table, as JMeter's table editor stores it in the plan. */
public class FaultRow extends AbstractTestElement {
    private static final long serialVersionUID = 1L;
    public static final String KIND = "kind";
    public static final String TARGET = "target";
    public static final String PARAMETERS = "parameters";
    public static final String START = "start";
    public static final String DURATION = "duration";

    public FaultRow() {
        super();
    }

    public FaultRow(String kind, String target, String parameters, String start, String duration) {
        setKind(kind);
        setTarget(target);
        setParameters(parameters);
        setStart(start);
        setDuration(duration);
    }

    public String getKind() {
        return getPropertyAsString(KIND);
    }

    public void setKind(String kind) {
        setProperty(KIND, kind);
    }

    public String getTarget() {
        return getPropertyAsString(TARGET);
    }

    public void setTarget(String target) {
        setProperty(TARGET, target);
    }

    public String getParameters() {
        return getPropertyAsString(PARAMETERS);
    }

    public void setParameters(String parameters) {
        setProperty(PARAMETERS, parameters);
    }

    public String getStart() {
        return getPropertyAsString(START);
    }

    public void setStart(String start) {
        setProperty(START, start);
    }

    public String getDuration() {
        return getPropertyAsString(DURATION);
    }

    public void setDuration(String duration) {
        setProperty(DURATION, duration);
    }
}
