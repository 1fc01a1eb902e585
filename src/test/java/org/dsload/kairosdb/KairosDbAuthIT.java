package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosFixture.connection;
import static org.dsload.kairosdb.KairosFixture.describe;
import static org.dsload.kairosdb.KairosFixture.writer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;

/** HTTP basic authentication against a KairosDB that requires it; the password never shows in a sample. */
class KairosDbAuthIT {
    private static final String SECRET = "s3cret-kairos";

    @Test
    void credentialsAreSentAndAWrongPasswordStopsTheTestAtStart() {
        try (EmbeddedKairosDb kairos = EmbeddedKairosDb.options().basicAuth("dsload", SECRET).start()) {
            JMeterRuntime.freshVariables();
            KairosDbConnection good = connection(kairos.url());
            good.setUser("dsload");
            good.setPassword(SECRET);
            good.testStarted();
            try {
                KairosDbWrite write = writer("it.auth", 25, 25, 1);
                write.setResponseDataLimit("100000");
                SampleResult r = write.sample(null);
                assertTrue(r.isSuccessful(), describe(r));
                assertTrue(r.getSamplerData().contains("it.auth.0"), r.getSamplerData());
                assertFalse(r.getSamplerData().contains(SECRET));
                assertFalse(r.getResponseDataAsString().contains(SECRET));
            } finally {
                good.testEnded();
            }

            JMeterRuntime.freshVariables();
            KairosDbConnection wrong = connection(kairos.url());
            wrong.setUser("dsload");
            wrong.setPassword("not-it");
            wrong.setCheckOnStart("false");
            wrong.testStarted();
            try {
                SampleResult r = writer("it.auth", 25, 25, 1).sample(null);
                assertFalse(r.isSuccessful());
                assertEquals("401", r.getResponseCode(), describe(r));
                assertFalse(r.getResponseMessage().contains("not-it"));
                assertFalse(r.getSamplerData().contains("not-it"));
            } finally {
                wrong.testEnded();
            }
        }
    }
}
