package com.example;

/** A valid class beside the corrupt one: it must be left exactly as javac wrote it. */
public class Ledger {
    private long balance;

    @Audit
    public long deposit(long amount) {
        balance += amount;
        return balance;
    }
}
