package org.dsload.cli;

import java.util.ArrayList;
import java.util.List;

import org.dsload.run.PlanRun;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** JMeter properties passed through as with JMeter's own -J and -G ({@code -Jthreads=50}). */
final class PropertyOptions {
    @Option(names = "-J", paramLabel = "name=value", converter = PropertyValue.class,
            description = "A JMeter property for the plan; distributed runs send it to the slaves too. Repeat for several.")
    private List<Property> properties = new ArrayList<>();

    @Option(names = "-G", paramLabel = "name=value", converter = PropertyValue.class,
            description = "A JMeter property for the slaves only (JMeter's -G). Repeat for several.")
    private List<Property> globals = new ArrayList<>();

    void applyTo(PlanRun run) {
        properties.forEach(p -> run.property(p.name(), p.value()));
        globals.forEach(p -> run.globalProperty(p.name(), p.value()));
    }

    /** The value of the last -J property of this name, or null. */
    String value(String name) {
        String found = null;
        for (Property p : properties) {
            if (p.name().equals(name)) {
                found = p.value();
            }
        }
        return found;
    }

    record Property(String name, String value) {
    }

    /** name=value; the value may itself hold '=' and may be empty. */
    static final class PropertyValue implements ITypeConverter<Property> {
        @Override
        public Property convert(String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new TypeConversionException("'" + text + "' is not name=value, such as -Jthreads=50");
            }
            return new Property(text.substring(0, eq), text.substring(eq + 1));
        }
    }
}
