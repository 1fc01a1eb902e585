package org.dsload.core;

/** A shared client that can tell how many connections it holds open, for the generator's metrics. */
public interface ConnectionCounting {
    int openConnections();
}
