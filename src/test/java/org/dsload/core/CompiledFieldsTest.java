package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class CompiledFieldsTest {
    private final AtomicInteger compilations = new AtomicInteger();
    private final CompiledFields<String> cache = new CompiledFields<>();

    private String compile(String... fields) {
        return cache.get(fields, () -> compilations.incrementAndGet() + ":" + String.join(",", fields));
    }

    @Test
    void sameFieldsAreCompiledOnce() {
        String first = compile("GET", "key:#{seq}");
        String second = compile("GET", "key:#{seq}");
        assertSame(first, second);
        assertEquals(1, compilations.get());
    }

    @Test
    void aChangedFieldIsCompiledAgain() {
        compile("GET", "key:#{seq}");
        assertEquals("2:SET,key:#{seq}", compile("SET", "key:#{seq}"));
        assertEquals("3:GET,key:#{seq}", compile("GET", "key:#{seq}"));
    }

    @Test
    void aFailedCompilationKeepsNothingAndFailsAgainNextTime() {
        Supplier failing = new Supplier();
        assertThrows(ConfigException.class, () -> cache.get(new String[] {"x"}, failing));
        assertThrows(ConfigException.class, () -> cache.get(new String[] {"x"}, failing));
        assertEquals(2, failing.calls);
    }

    @Test
    void theCallersArrayMayChangeAfterwards() {
        String[] fields = {"GET"};
        cache.get(fields, () -> "compiled");
        fields[0] = "SET";
        assertEquals("again", cache.get(new String[] {"SET"}, () -> "again"));
    }

    private static final class Supplier implements java.util.function.Supplier<String> {
        int calls;

        @Override
        public String get() {
            calls++;
            throw new ConfigException("field 'x' is wrong");
        }
    }
}
