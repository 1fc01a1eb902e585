package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TemplateTest {

    @Test
    void textWithoutPlaceholdersIsConstant() {
        Template t = Template.compile("user:{42}:profile");
        assertTrue(t.isConstant());
        assertEquals("user:{42}:profile", t.expand(7, 3, 2));
    }

    @Test
    void sequenceIndexAndThreadAreSubstituted() {
        Template t = Template.compile("1:#{seq}/#{i}@#{thread}");
        assertEquals("1:15/2@4", t.expand(15, 2, 4));
        assertTrue(t.usesSequence());
    }

    @Test
    void sequenceModuloCyclesOverNKeys() {
        Template t = Template.compile("1:#{seq:1000}");
        assertEquals("1:0", t.expand(0, 0, 1));
        assertEquals("1:999", t.expand(999, 0, 1));
        assertEquals("1:0", t.expand(1000, 0, 1));
        assertEquals("1:234", t.expand(1234, 0, 1));
    }

    @Test
    void randomStaysBelowItsBound() {
        Template t = Template.compile("k#{rand:3}");
        assertFalse(t.usesSequence());
        for (int i = 0; i < 200; i++) {
            String key = t.expand(0, 0, 1);
            assertTrue(key.equals("k0") || key.equals("k1") || key.equals("k2"), key);
        }
    }

    @Test
    void redisHashTagsAndJsonBracesAreLeftAlone() {
        assertEquals("{user1}:cart", Template.compile("{user1}:cart").expand(0, 0, 1));
        assertEquals("{\"a\":5}", Template.compile("{\"a\":#{i}}").expand(0, 5, 1));
    }

    @Test
    void theBytesOfAnExpansionAreItsTextInUtf8() {
        for (String text : new String[] {"1:#{seq}/#{i}@#{thread}", "clé:#{seq:1000}:ü", "plain", "#{seq}", "{u}:#{i}"}) {
            Template t = Template.compile(text);
            for (long seq : new long[] {0, 9, 10, 123_456_789_012L, -5}) {
                assertEquals(t.expand(seq, 7, 12), new String(t.expandUtf8(seq, 7, 12),
                        java.nio.charset.StandardCharsets.UTF_8), text + " at " + seq);
            }
        }
        String random = new String(Template.compile("k#{rand:3}").expandUtf8(0, 0, 1),
                java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(random.matches("k[012]"), random);
    }

    @Test
    void unknownPlaceholderIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Template.compile("k#{sequence}"));
        assertTrue(e.getMessage().contains("#{sequence}"), e.getMessage());
        assertTrue(e.getMessage().contains("#{seq:N}"), e.getMessage());
    }

    @Test
    void malformedPlaceholdersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Template.compile("k#{seq"));
        assertThrows(IllegalArgumentException.class, () -> Template.compile("k#{seq:0}"));
        assertThrows(IllegalArgumentException.class, () -> Template.compile("k#{rand:x}"));
    }
}
