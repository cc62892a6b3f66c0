package com.example.app;

/** Fills a shelf and prints its label. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Shelf shelf = new Shelf();
        shelf.add(2);
        shelf.add(3);
        System.out.println(new Label().of(shelf.count()));
    }
}
