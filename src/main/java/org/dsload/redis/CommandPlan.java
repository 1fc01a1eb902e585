package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import org.dsload.core.Payloads;
import org.dsload.core.SizeSpec;
import org.dsload.core.Template;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.commands.ProtocolCommand;

/**
 * A sampler's command fields compiled once: the command, key templates, argument templates and
 * value sizes. {@link #build} turns it into the concrete commands of one sample.
 */
final class CommandPlan {
    /** The argument that stands for a generated value of the configured size. */
    static final String VALUE = "#{value}";
    /** Commands whose keys follow a script, sha or function name and a key count. */
    private static final Set<String> SCRIPT_LAYOUT =
            Set.of("EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO");
    /** Commands whose arguments must never reach sampler data or logs. */
    private static final Set<String> SECRET_ARGUMENTS = Set.of("AUTH", "HELLO", "MIGRATE");

    private final String name;
    private final ProtocolCommand command;
    private final List<String> subcommand;
    private final Template[] keys;
    private final Object[] arguments; // Template, or VALUE
    private final SizeSpec valueSize;
    private final boolean scriptLayout;
    private final boolean secret;

    private CommandPlan(String name, ProtocolCommand command, List<String> subcommand, Template[] keys,
            Object[] arguments, SizeSpec valueSize) {
        this.name = name;
        this.command = command;
        this.subcommand = subcommand;
        this.keys = keys;
        this.arguments = arguments;
        this.valueSize = valueSize;
        this.scriptLayout = SCRIPT_LAYOUT.contains(name);
        this.secret = SECRET_ARGUMENTS.contains(name);
    }

    /**
     * @param commandText a command name, optionally followed by a subcommand ("CONFIG GET")
     * @param keysText    keys separated by white space; may be empty for keyless commands
     * @param argsText    further arguments separated by white space, double quotes group words
     * @throws IllegalArgumentException with the field at fault as the message's first word
     */
    static CommandPlan compile(String commandText, String keysText, String argsText, SizeSpec valueSize) {
        List<String> words = tokens(commandText);
        if (words.isEmpty()) {
            throw new IllegalArgumentException("command:must name a Redis command, for example GET");
        }
        String name = words.get(0).toUpperCase(Locale.ROOT);
        List<Template> keyTemplates = new ArrayList<>();
        for (String key : tokens(keysText)) {
            keyTemplates.add(compile("keys", key));
        }
        List<Object> args = new ArrayList<>();
        for (String arg : tokens(argsText)) {
            args.add(arg.equals(VALUE) ? VALUE : compile("arguments", arg));
        }
        if (SCRIPT_LAYOUT.contains(name) && args.isEmpty()) {
            throw new IllegalArgumentException("arguments:must start with the script, sha1 or function name for " + name);
        }
        return new CommandPlan(name, protocolCommand(name), words.subList(1, words.size()),
                keyTemplates.toArray(new Template[0]), args.toArray(), valueSize);
    }

    private static Template compile(String field, String text) {
        try {
            return Template.compile(text);
        } catch (IllegalArgumentException e) {
            String hint = text.contains(VALUE) ? " (" + VALUE + " must be a whole argument)" : "";
            throw new IllegalArgumentException(field + ":" + e.getMessage() + hint, e);
        }
    }

    private static ProtocolCommand protocolCommand(String name) {
        try {
            return Protocol.Command.valueOf(name);
        } catch (IllegalArgumentException unknownToJedis) {
            byte[] raw = name.getBytes(StandardCharsets.UTF_8);
            return () -> raw;
        }
    }

    /** Splits on white space; a double-quoted part is one token (quotes removed, \" kept as "). */
    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        if (text == null) {
            return tokens;
        }
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        boolean inToken = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    current.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    current.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    tokens.add(current.toString());
                    current.setLength(0);
                    inToken = false;
                }
            } else {
                current.append(c);
                inToken = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("arguments:has an unclosed double quote in '" + text + "'");
        }
        if (inToken) {
            tokens.add(current.toString());
        }
        return tokens;
    }

    boolean usesValue() {
        for (Object arg : arguments) {
            if (arg == VALUE) {
                return true;
            }
        }
        return false;
    }

    /**
     * One concrete command.
     *
     * @param seq    the thread's counter for this command
     * @param index  the position of the command in its sample
     * @param thread the JMeter thread number
     */
    CommandArguments build(long seq, int index, int thread) {
        CommandArguments out = new CommandArguments(command);
        for (String word : subcommand) {
            out.add(word);
        }
        int argStart = 0;
        if (scriptLayout) {
            out.add(expand(arguments[0], seq, index, thread));
            out.add(keys.length);
            argStart = 1;
        }
        for (Template key : keys) {
            out.key(key.expandUtf8(seq, index, thread));
        }
        for (int i = argStart; i < arguments.length; i++) {
            out.add(expand(arguments[i], seq, index, thread));
        }
        return out;
    }

    private byte[] expand(Object argument, long seq, int index, int thread) {
        if (argument == VALUE) {
            return Payloads.of(valueSize.next(ThreadLocalRandom.current()), ThreadLocalRandom.current());
        }
        return ((Template) argument).expandUtf8(seq, index, thread);
    }

    /** The command as a person reads it: values shown by size, secrets masked. */
    String describe(CommandArguments built) {
        StringBuilder text = new StringBuilder();
        boolean first = true;
        int position = 0;
        for (var arg : built) {
            byte[] raw = arg.getRaw();
            if (!first) {
                text.append(' ');
            }
            if (secret && position > 0) {
                text.append("****");
            } else if (raw.length > 64) {
                text.append('<').append(raw.length).append(" bytes>");
            } else {
                text.append(new String(raw, StandardCharsets.UTF_8));
            }
            first = false;
            position++;
        }
        return text.toString();
    }

    String name() {
        return name;
    }
}
