package org.dsload.run;

/**
 * The lines the runner adds at the end of a run's summary.txt: how the run ended when it did not
 * end well, and where the HTML dashboard's figures are set apart from the summary's.
 */
final class RunEndText {
    private RunEndText() {
    }

    /**
     * @param readme the dashboard's note beside its index.html (a path relative to the run folder), or null
     */
    static String of(RunJudge.Verdict verdict, String readme) {
        StringBuilder text = new StringBuilder();
        if (readme != null) {
            text.append("\nHTML dashboard: dashboard/index.html. It counts a results row as one request and times in "
                    + "whole milliseconds, so some of its figures differ from these: ").append(readme)
                    .append(" says which and why.\n");
        }
        if (!verdict.expected().isEmpty()) {
            text.append("\nExpected during the run:");
            verdict.expected().forEach(e -> text.append("\n  ").append(e));
            text.append('\n');
        }
        if (verdict.ending() != Ending.OK) {
            text.append('\n').append(heading(verdict.ending())).append(": ").append(verdict.problem()).append('\n');
        }
        return text.toString();
    }

    static String heading(Ending ending) {
        return switch (ending) {
            case INTERRUPTED -> "Run INTERRUPTED";
            case REFUSED -> "Run REFUSED";
            case NO_SUCCESS -> "Run FAILED, no successful sample";
            case FAILED -> "Run FAILED";
            case STORE_FAILED -> "Run FAILED, the store failed";
            case LOAD_INCOMPLETE -> "Run FAILED, not the planned load";
            case LIMITS_BROKEN -> "Run STOPPED, limits broken";
            case OK -> "Run ended well";
        };
    }
}
