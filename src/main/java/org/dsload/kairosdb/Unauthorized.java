package org.dsload.kairosdb;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Fields;
import org.dsload.core.Outcome;
import org.dsload.core.Unrecoverable;

/**
 * KairosDB's answers that no retry cures: 401 (the user name or password is refused) and 403 (the
 * login may not do this). A wrong password that the start check did not see (Check on start off)
 * would otherwise fail every batch and query as fast as the threads loop.
 */
final class Unauthorized {
    private Unauthorized() {
    }

    static boolean unrecoverable(Outcome failed) {
        return failed.code().equals("401") || failed.code().equals("403");
    }

    /** The Stop on unrecoverable errors field; empty (a plan saved before the field existed) is on. */
    static boolean stopFlag(Fields f, String raw) {
        return raw == null || raw.isBlank() || f.flag(Unrecoverable.FIELD, raw);
    }

    /** Stops the test at a failed sample KairosDB refused the login of, when the sampler says so. */
    static SampleResult stopIf(SampleResult result, boolean stopOn, String element) {
        if (result != null && !result.isSuccessful()) {
            Unrecoverable.stopIf(result, Outcome.failed(result.getResponseCode(), result.getResponseMessage(), 0, 0),
                    Unauthorized::unrecoverable, stopOn, element);
        }
        return result;
    }
}
