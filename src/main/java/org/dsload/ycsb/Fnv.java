package org.dsload.ycsb;

/**
 * The 64-bit FNV-1a hash over the eight bytes of a long, low byte first, made non-negative: how
 * YCSB turns record numbers into key names ("user" + hash) and scatters zipfian ranks over the
 * key space. The same function gives the same keys, so a dsload run and a YCSB run touch the
 * same rows.
 */
public final class Fnv {
    private static final long OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long PRIME = 1099511628211L;

    private Fnv() {
    }

    public static long hash64(long value) {
        long hash = OFFSET_BASIS;
        long rest = value;
        for (int i = 0; i < 8; i++) {
            hash ^= rest & 0xff;
            hash *= PRIME;
            rest >>= 8;
        }
        return Math.abs(hash);
    }
}
