package org.dsload.core;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Value bytes of a requested size, cut from one shared block of random printable characters so
 * that making a value costs a copy, not a random draw per byte.
 */
public final class Payloads {
    private static final int BLOCK = 1 << 20;
    private static final byte[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".getBytes();
    private static final byte[] BLOCK_BYTES = block();

    private Payloads() {
    }

    private static byte[] block() {
        SplittableRandom random = new SplittableRandom(0x5eed);
        byte[] bytes = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return bytes;
    }

    public static byte[] of(int size, RandomGenerator random) {
        if (size <= BLOCK) {
            int offset = size == BLOCK ? 0 : random.nextInt(BLOCK - size + 1);
            return Arrays.copyOfRange(BLOCK_BYTES, offset, offset + size);
        }
        byte[] bytes = new byte[size];
        for (int at = 0; at < size; at += BLOCK) {
            System.arraycopy(BLOCK_BYTES, 0, bytes, at, Math.min(BLOCK, size - at));
        }
        return bytes;
    }
}
