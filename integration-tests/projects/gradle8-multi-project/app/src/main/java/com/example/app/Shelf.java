package com.example.app;

import com.example.groups.Stock;

/** Traced with the group that project :groups defines. */
@Stock
public class Shelf {
    private int count;

    @Stock
    public void add(int items) {
        count += items;
    }

    @Stock
    public int count() {
        return count;
    }
}
