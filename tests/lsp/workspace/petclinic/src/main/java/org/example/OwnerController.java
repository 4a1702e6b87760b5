package org.example;

public class OwnerController {
    private final OwnerRepository repository;

    public OwnerController(OwnerRepository repository) {
        this.repository = repository;
    }

    public Owner show(int id) {
        Owner owner = repository.findById(id);
        return owner;
    }

    public String showName(int id) {
        return "owner " + show(id).getId();
    }
}
