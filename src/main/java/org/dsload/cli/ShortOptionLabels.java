package org.dsload.cli;

import java.util.Arrays;
import java.util.List;

import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Help.Ansi.IStyle;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.IParamLabelRenderer;
import picocli.CommandLine.IHelpFactory;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Shows one-letter options the way they are typed, as with JMeter: {@code -Jname=value} and
 * {@code -R host:port} rather than picocli's {@code -J=name=value}; long options keep
 * {@code --results=<dir>}. Every form is accepted on the command line all the same.
 */
final class ShortOptionLabels implements IHelpFactory {
    @Override
    public Help create(CommandSpec spec, ColorScheme colors) {
        return new Help(spec, colors) {
            private final IParamLabelRenderer standard = super.parameterLabelRenderer();

            @Override
            public IParamLabelRenderer parameterLabelRenderer() {
                return new IParamLabelRenderer() {
                    @Override
                    public Text renderParameterLabel(ArgSpec arg, Ansi ansi, List<IStyle> styles) {
                        Text label = standard.renderParameterLabel(arg, ansi, styles);
                        if (!shortOnly(arg) || !label.plainString().startsWith(standard.separator())) {
                            return label;
                        }
                        String value = label.plainString().substring(standard.separator().length());
                        return ansi.text((attached(arg) ? "" : " ") + value);
                    }

                    /** The option list puts this between a short name and its label; the label has it already. */
                    @Override
                    public String separator() {
                        return "";
                    }
                };
            }
        };
    }

    /** Options whose value is written onto the name, as JMeter's -Jname=value. */
    private static boolean attached(ArgSpec arg) {
        return arg.paramLabel().contains("=");
    }

    private static boolean shortOnly(ArgSpec arg) {
        return arg instanceof OptionSpec option
                && Arrays.stream(option.names()).allMatch(n -> n.length() == 2 && n.charAt(0) == '-');
    }
}
