package org.dsload.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class ProcFsTest {
    @Test
    void addressesOfTheKernelsTcpTablesReadAsHostAndPort() {
        assertEquals(Optional.of("10.213.1.4:4000"), ProcFs.ipv4("0401D50A:0FA0"));
        assertEquals(Optional.of("10.213.1.4:4000"), ProcFs.ipv4("0000000000000000FFFF00000401D50A:0FA0"),
                "an IPv4-mapped address of an IPv6 socket");
        assertEquals(Optional.empty(), ProcFs.ipv4("00000000000000000000000001000000:0FA0"), "IPv6 is not read");
    }
}
