package org.example;

public class OwnerRepository {
    public Owner findById(int id) {
        return new Owner(id);
    }
}
