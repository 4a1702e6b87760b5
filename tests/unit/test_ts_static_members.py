"""A TypeScript class's static member and its instances' member of the same name are two members
(express-typescript-boilerplate's ``User``: ``static hashPassword(password)`` and the
``@BeforeInsert`` instance ``hashPassword()`` calling it): ``User.hashPassword(x)`` binds the static
one, ``this.hashPassword()`` / ``user.hashPassword()`` the instance one, never the other."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
# --- path: src/user.ts ---
export class User {
    public static hashPassword(password: string): Promise<string> { return Promise.resolve(password); }
    public static label: string = 'user';
    public label: string;
    public password: string;

    public async hashPassword(): Promise<void> {
        this.password = await User.hashPassword(this.password);
    }

    public async again(): Promise<void> { await this.hashPassword(); }
}

export async function register(user: User, raw: string): Promise<string> {
    await user.hashPassword();
    return User.hashPassword(raw);
}
"""


def test_static_and_instance_namesakes() -> None:
    assert edges(resolve_fixture(FIXTURE)) == [
        "src/user.User.again(0) -> src/user.User.hashPassword(0) [exact]",
        "src/user.User.hashPassword(0) -> src/user.User.hashPassword(1) [exact]",  # the static, not itself
        "src/user.register(2) -> src/user.User.hashPassword(0) [exact]",
        "src/user.register(2) -> src/user.User.hashPassword(1) [exact]",
    ]
