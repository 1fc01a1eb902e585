package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosDbFixture.connection;
import static org.dsload.kairosdb.KairosDbFixture.describe;
import static org.dsload.kairosdb.KairosDbFixture.writer;
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
    void credentialsAreSentAndAWrongPasswordStopsTheTestAtStartOrAtItsFirstRefusal() {
        try (EmbeddedKairosDb kairos = EmbeddedKairosDb.options().basicAuth("dsload", SECRET).start()) {
            JMeterRuntime.freshVariables();
            KairosDbConnection good = connection(kairos.url());
            good.setUser("dsload");
            good.setPassword(SECRET);
            good.testStarted();
            try {
                KairosDbWriteSampler write = writer("it.auth", 25, 25, 1);
                write.setResponseDataLimit("100000");
                SampleResult r = write.sample(null);
                assertTrue(r.isSuccessful(), describe(r));
                assertTrue(r.getSamplerData().contains("it.auth.0"), r.getSamplerData());
                assertFalse(r.getSamplerData().contains(SECRET));
                assertFalse(r.getResponseDataAsString().contains(SECRET));
            } finally {
                good.testEnded();
            }

            // the start check (on by default) refuses the login before any load
            JMeterRuntime.freshVariables();
            KairosDbConnection checked = connection(kairos.url());
            checked.setUser("dsload");
            checked.setPassword("not-it");
            checked.testStarted();
            try {
                SampleResult r = writer("it.auth", 25, 25, 1).sample(null);
                assertEquals("CONFIG", r.getResponseCode(), describe(r));
                assertTrue(r.getResponseMessage().contains("401"), r.getResponseMessage());
                assertTrue(r.isStopTest(), "a refused login stops the test at once");
                assertFalse(r.getResponseMessage().contains("not-it"));
            } finally {
                checked.testEnded();
            }

            // without the start check, the first refused request stops the test unless the sampler says run on
            JMeterRuntime.freshVariables();
            KairosDbConnection wrong = connection(kairos.url());
            wrong.setUser("dsload");
            wrong.setPassword("not-it");
            wrong.setCheckOnStart("false");
            wrong.testStarted();
            try {
                KairosDbWriteSampler write = writer("it.auth", 25, 25, 1);
                SampleResult r = write.sample(null);
                assertFalse(r.isSuccessful());
                assertEquals("401", r.getResponseCode(), describe(r));
                assertEquals(25, r.getErrorCount(), "every point of the batch failed");
                assertTrue(r.isStopTest(), "no retry cures a refused login: the test stops");
                assertFalse(r.getResponseMessage().contains("not-it"));
                assertFalse(r.getSamplerData().contains("not-it"));

                SampleResult query = KairosDbFixture.query("it.auth.#{m}", 1).sample(null);
                assertEquals("401", query.getResponseCode(), describe(query));
                assertTrue(query.isStopTest(), "a query refused its login stops the test too");

                write.setStopOnUnrecoverable("false");
                SampleResult runOn = write.sample(null);
                assertEquals("401", runOn.getResponseCode(), describe(runOn));
                assertFalse(runOn.isStopTest(), "with the field off the failure is a sample like any other");

                KairosDbWriteSampler inFlight = writer("it.auth", 25, 25, 1);
                inFlight.setInFlight("4");
                SampleResult row = inFlight.sample(null);
                assertEquals("401", row.getResponseCode(), describe(row));
                assertTrue(row.isStopTest(), "a row of requests in flight stops the test as well");
            } finally {
                wrong.testEnded();
            }
        }
    }
}
