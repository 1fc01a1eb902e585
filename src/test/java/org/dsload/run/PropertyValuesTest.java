package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertyValuesTest {
    private static final String PLAN = """
            <ThreadGroup>
              <stringProp name="ThreadGroup.num_threads">${__P(threads,1)}</stringProp>
              <stringProp name="ThreadGroup.duration">${__intSum(${__P(warmup,10)},${__P(duration,60)})}</stringProp>
              <stringProp name="ThreadGroup.ramp_time">${__jexl3(${__P(threads,1)} * ${__P(ramp_step,1.5)} + '${__P(extra,)}')}</stringProp>
              <stringProp name="LoopController.loops">${__P(loops,-1)}</stringProp>
            </ThreadGroup>
            <Arrivals>
              <stringProp name="rate">${__P(rate,1000)}</stringProp>
              <stringProp name="share">${__jexl3(${__P(fraction,0.5)} * 2)}</stringProp>
              <stringProp name="check">${__P(cross_check,true)}</stringProp>
              <stringProp name="hosts">${__P(hosts,127.0.0.1:6379)}</stringProp>
              <stringProp name="limit">${__P(limit,)}</stringProp>
              <stringProp name="limit2">${__P(limit,100)}</stringProp>
              <stringProp name="range">${__P(range,15 minutes)}</stringProp>
              <stringProp name="port">${__P(port,8086)}</stringProp>
              <stringProp name="url">http://host:${__P(port,x)}/</stringProp>
              <stringProp name="script">props.get('from_script')</stringProp>
            </Arrivals>
            """;

    @Test
    void aNumberIsNeededWhereThePlansDefaultIsOne() {
        assertEquals("must be a number", PropertyValues.problem(PLAN, "rate", "abc"));
        assertEquals("must be a number", PropertyValues.problem(PLAN, "rate", ""));
        assertEquals("must be a number", PropertyValues.problem(PLAN, "rate", "1,000"));
        assertNull(PropertyValues.problem(PLAN, "rate", "0.5"));
        assertNull(PropertyValues.problem(PLAN, "rate", " 5000 "));
        assertNull(PropertyValues.problem(PLAN, "fraction", ".25"));
        assertNull(PropertyValues.problem(PLAN, "rate", "1e3"));
    }

    @Test
    void noValueBelowZeroWhereNoDefaultIsBelowZero() {
        assertEquals("must not be below 0", PropertyValues.problem(PLAN, "rate", "-5"));
        assertEquals("must not be below 0", PropertyValues.problem(PLAN, "threads", "-1"));
        assertNull(PropertyValues.problem(PLAN, "loops", "-1"));
        assertNull(PropertyValues.problem(PLAN, "rate", "0"));
    }

    @Test
    void aWholeNumberWhereJMeterReadsOne() {
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(PLAN, "threads", "2.5"));
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(PLAN, "duration", "2.5"));
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(PLAN, "warmup", "1e1"));
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(PLAN, "loops", "0.5"));
        assertNull(PropertyValues.problem(PLAN, "duration", "30"));
        assertNull(PropertyValues.problem(PLAN, "fraction", "0.75"), "a number in a jexl3 expression may have a fraction");
        assertNull(PropertyValues.problem(PLAN, "ramp_step", "2.5"), "a factor of a whole field's expression");
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(PLAN, "extra", "0.5"),
                "an optional setting within a whole field's expression");
        assertNull(PropertyValues.problem(PLAN, "extra", ""));
    }

    @Test
    void aFlagIsTrueOrFalse() {
        assertEquals("must be true or false", PropertyValues.problem(PLAN, "cross_check", "yes"));
        assertEquals("must be true or false", PropertyValues.problem(PLAN, "cross_check", "1"));
        assertNull(PropertyValues.problem(PLAN, "cross_check", "FALSE"));
    }

    @Test
    void textAndEmptyDefaultsAndUnknownNamesAreNotChecked() {
        assertNull(PropertyValues.problem(PLAN, "hosts", "anything at all"));
        assertNull(PropertyValues.problem(PLAN, "range", "2 hours"));
        assertNull(PropertyValues.problem(PLAN, "limit", ""), "one use's empty default allows an empty value");
        assertEquals("must be a number", PropertyValues.problem(PLAN, "limit", "ten"));
        assertNull(PropertyValues.problem(PLAN, "port", "x"), "one use takes any text");
        assertNull(PropertyValues.problem(PLAN, "not_in_the_plan", "abc"));
    }

    @Test
    void everyShippedPlanTakesItsOwnDefaults() throws Exception {
        Pattern use = Pattern.compile("\\$\\{__P\\(([A-Za-z0-9_.\\-]+),([^(){}$]*)\\)}");
        List<String> plans = new ArrayList<>();
        try (Stream<Path> files = Files.list(Checkout.plans())) {
            for (Path plan : files.filter(f -> f.toString().endsWith(".jmx")).sorted().toList()) {
                String text = Files.readString(plan, StandardCharsets.UTF_8);
                Matcher m = use.matcher(text);
                int checked = 0;
                while (m.find()) {
                    String value = m.group(2).replace("\\,", ",");
                    assertNull(PropertyValues.problem(text, m.group(1), value), plan + ": " + m.group(1) + "=" + value);
                    checked++;
                }
                assertTrue(checked > 5, plan + " reads its settings with __P: " + checked);
                plans.add(plan.getFileName().toString());
            }
        }
        assertTrue(plans.contains("redis-get-rate.jmx") && plans.size() >= 10, plans.toString());
        String rate = Files.readString(Checkout.plans().resolve("redis-get-rate.jmx"), StandardCharsets.UTF_8);
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(rate, "duration", "2.5"));
        // the YCSB plans' optional duration, the thread group's duration when given
        String ycsb = Files.readString(Checkout.plans().resolve("cassandra-ycsb.jmx"), StandardCharsets.UTF_8);
        assertEquals("must be a number", PropertyValues.problem(ycsb, "duration", "abc"));
        assertEquals("must be a whole number (JMeter reads it as one)", PropertyValues.problem(ycsb, "duration", "2.5"));
        assertNull(PropertyValues.problem(ycsb, "duration", ""));
        assertNull(PropertyValues.problem(ycsb, "duration", "30"));
        assertEquals("must not be below 0", PropertyValues.problem(rate, "threads", "-1"));
    }

    @Test
    void everyValueThePlanCannotUseIsSaidAtOnceWithThePlansDefault(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("p.jmx"), PLAN, StandardCharsets.UTF_8);
        PlanRun run = new PlanRun(dir, plan).property("rate", "abc").property("hosts", "h:1").globalProperty("threads", "2.5");
        assertEquals("the plan p.jmx cannot use these values:\n"
                + "  -Jrate=abc: must be a number (the plan's default: 1000)\n"
                + "  -Gthreads=2.5: must be a whole number (JMeter reads it as one) (the plan's default: 1)",
                PropertyValues.refusal(run, PLAN));
        assertNull(PropertyValues.refusal(new PlanRun(dir, plan).property("rate", "20").property("limit", ""), PLAN));
        assertTrue(PropertyValues.refusal(new PlanRun(dir, plan).property("limit", "x"), PLAN)
                .endsWith("-Jlimit=x: must be a number (the plan's default: empty, 100)"));
    }

    @Test
    void aNameThePlanNeverMentionsIsSaidWithTheNameItLikelyMeant(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("p.jmx"), PLAN, StandardCharsets.UTF_8);
        PlanRun run = new PlanRun(dir, plan).property("duraton", "30").property("rate", "5").property("colour", "red")
                .property("jmeter.save.saveservice.output_format", "csv").property("sample_variables", "x")
                .property("from_script", "1").property("min_slaves", "2").globalProperty("thread", "3");
        assertEquals(List.of(
                "-Jduraton is not a property p.jmx reads: JMeter passes it on unused; did you mean -Jduration?",
                "-Jcolour is not a property p.jmx reads: JMeter passes it on unused",
                "-Gthread is not a property p.jmx reads: JMeter passes it on unused; did you mean -Gthreads?"),
                PropertyValues.unread(run, PLAN));
    }

    @Test
    void distanceCountsTheFewestEdits() {
        assertEquals(0, PropertyValues.distance("rate", "rate"));
        assertEquals(1, PropertyValues.distance("duraton", "duration"));
        assertEquals(2, PropertyValues.distance("treads", "thread"));
        assertEquals(4, PropertyValues.distance("", "rate"));
    }
}
