package org.dsload.zookeeper;

import java.util.Locale;

/** What a ZooKeeper sample does, as the Operation field names it. */
enum ZnodeOperation {
    CREATE, SET, GET, EXISTS, DELETE, CHILDREN, MULTI, WATCH;

    String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    static String[] words() {
        ZnodeOperation[] all = values();
        String[] words = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            words[i] = all[i].word();
        }
        return words;
    }

    boolean writes() {
        return this == CREATE || this == SET || this == DELETE || this == MULTI;
    }

    boolean canLeaveWatch() {
        return this == GET || this == EXISTS || this == CHILDREN;
    }
}
