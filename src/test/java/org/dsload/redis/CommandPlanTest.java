package org.dsload.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.dsload.core.SizeSpec;
import org.junit.jupiter.api.Test;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.args.Rawable;

class CommandPlanTest {
    private static final SizeSpec HUNDRED = SizeSpec.parse("100");

    private static List<String> words(CommandArguments args) {
        List<String> words = new ArrayList<>();
        for (Rawable r : args) {
            words.add(new String(r.getRaw(), StandardCharsets.UTF_8));
        }
        return words;
    }

    @Test
    void keysComeRightAfterTheCommandAndAreMarkedForClusterRouting() {
        CommandPlan plan = CommandPlan.compile("hset", "user:#{seq}", "name \"Ada Lovelace\"", HUNDRED);
        CommandArguments built = plan.build(7, 0, 1);
        assertEquals(List.of("HSET", "user:7", "name", "Ada Lovelace"), words(built));
        assertEquals(1, built.getKeys().size());
    }

    @Test
    void valueArgumentIsGeneratedAtTheConfiguredSize() {
        CommandPlan plan = CommandPlan.compile("SET", "k", "#{value} EX 60", SizeSpec.parse("2048"));
        assertTrue(plan.usesValue());
        List<String> words = words(plan.build(0, 0, 1));
        assertEquals(5, words.size());
        assertEquals(2048, words.get(2).length());
        assertEquals("EX", words.get(3));
        assertEquals("SET k <2048 bytes> EX 60", plan.describe(plan.build(0, 0, 1)));
    }

    @Test
    void scriptCommandsGetTheirKeyCountInserted() {
        CommandPlan plan = CommandPlan.compile("EVALSHA", "a b", "abc123 x", HUNDRED);
        assertEquals(List.of("EVALSHA", "abc123", "2", "a", "b", "x"), words(plan.build(0, 0, 1)));
    }

    @Test
    void subcommandsFollowTheCommandName() {
        CommandPlan plan = CommandPlan.compile("CONFIG GET", "", "maxmemory", HUNDRED);
        assertEquals(List.of("CONFIG", "GET", "maxmemory"), words(plan.build(0, 0, 1)));
    }

    @Test
    void commandsUnknownToJedisAreSentByName() {
        CommandPlan plan = CommandPlan.compile("x.custom", "k", "", HUNDRED);
        assertEquals(List.of("X.CUSTOM", "k"), words(plan.build(0, 0, 1)));
    }

    @Test
    void credentialsNeverShowInTheDescription() {
        CommandPlan plan = CommandPlan.compile("AUTH", "", "admin hunter2", HUNDRED);
        String text = plan.describe(plan.build(0, 0, 1));
        assertFalse(text.contains("hunter2"), text);
        assertFalse(text.contains("admin"), text);
    }

    @Test
    void fieldsAtFaultAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandPlan.compile(" ", "", "", HUNDRED))
                .getMessage().startsWith("command:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandPlan.compile("GET", "k#{x}", "", HUNDRED))
                .getMessage().startsWith("keys:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandPlan.compile("SET", "k", "v#{value}", HUNDRED))
                .getMessage().contains("#{value} must be a whole argument"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandPlan.compile("EVAL", "k", "", HUNDRED))
                .getMessage().startsWith("arguments:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandPlan.compile("SET", "k", "\"open", HUNDRED))
                .getMessage().contains("unclosed double quote"));
    }

    @Test
    void tokensHonourQuotesAndEscapedQuotes() {
        assertEquals(List.of("a", "b c", "say \"hi\"", ""), CommandPlan.tokens("a \"b c\" \"say \\\"hi\\\"\" \"\""));
    }
}
