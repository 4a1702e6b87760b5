package org.example;

public class Owner {
    private final int id;

    public Owner(int id) {
        this.id = id;
    }

    public int getId() {
        return id;
    }
}
