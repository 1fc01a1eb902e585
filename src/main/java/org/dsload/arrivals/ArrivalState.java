package org.dsload.arrivals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.jmeter.threads.AbstractThreadGroup;

/**
 * What the threads of one thread group share for one arrival element in one test (a schedule,
 * counters). Thread groups are the engine's own objects, the same for all their threads, and
 * are told apart by identity; the map is emptied when a test starts.
 */
final class ArrivalState {
    private record Key(AbstractThreadGroup group, String element) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.group == group && k.element.equals(element);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(group) * 31 + element.hashCode();
        }
    }

    private static final Map<Key, Object> STATES = new ConcurrentHashMap<>();

    private ArrivalState() {
    }

    static void clear() {
        STATES.clear();
    }

    /** Every state of this kind, of any group and element. */
    static <T> List<T> all(Class<T> kind) {
        return STATES.values().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    @SuppressWarnings("unchecked")
    static <T> T of(AbstractThreadGroup group, String element, Supplier<T> create) {
        return (T) STATES.computeIfAbsent(new Key(group, element), k -> create.get());
    }
}
