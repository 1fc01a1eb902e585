package org.dsload.arrivals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.openmodel.OpenModelThreadGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What differs between JMeter versions of the Open Model Thread Group, in one place. */
final class OpenModelQuirks {
    private static final Logger log = LoggerFactory.getLogger(OpenModelQuirks.class);

    private OpenModelQuirks() {
    }

    /**
     * The instant the group's schedule counts from: the test's start in JMeter 5.6.3; the
     * group's own start in later versions, which record it ({@code getStartTime()}).
     */
    static long scheduleOrigin(AbstractThreadGroup group) {
        try {
            Method own = AbstractThreadGroup.class.getMethod("getStartTime");
            long start = (long) own.invoke(group);
            if (start > 0) {
                return start;
            }
        } catch (ReflectiveOperationException | RuntimeException older) {
            // 5.6.3: no such method
        }
        return JMeterContextService.getTestStartTime();
    }

    /**
     * JMeter 5.6.3's group starts its arrivals from a static thread pool whose idle thread lives
     * 60 s, which keeps a non-GUI JMeter process alive for a minute after its test has ended.
     * One second is enough for the next test to reuse the thread.
     */
    static void shortenStarterIdleTime() {
        try {
            Field field = OpenModelThreadGroup.class.getDeclaredField("houseKeepingThreadPool");
            field.setAccessible(true);
            if (field.get(null) instanceof ThreadPoolExecutor pool) {
                pool.setKeepAliveTime(1, TimeUnit.SECONDS);
            }
        } catch (ReflectiveOperationException | RuntimeException other) {
            log.debug("dsload: the Open Model Thread Group's starter pool is not the one of JMeter 5.6.3: {}",
                    other.toString());
        }
    }
}
