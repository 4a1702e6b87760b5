"""Python call resolution for the code people write (issue 16, items 1-7): one named test per
pattern, each with the exact edges expected and the ones that must not bind."""

from tests.resolution_harness import check


def test_class_attribute_set_by_cls_in_a_base_classmethod_types_self_attr_in_subclasses():
    # Django's SimpleTestCase: `client_class = Client`, `cls.client = cls.client_class()` in the
    # classmethod `_pre_setup`; test cases in other files call `self.client.force_login(...)`.
    check(
        """
        # --- path: fw/__init__.py ---
        # --- path: fw/client.py ---
        class Client:
            def force_login(self, user):
                pass
        class Other:
            def force_login(self, user):
                pass
        # --- path: fw/cases.py ---
        from fw.client import Client

        class SimpleTestCase:
            client_class = Client

            @classmethod
            def _pre_setup(cls):
                cls.client = cls.client_class()

            def not_a_classmethod(cls):
                cls.other = Client()
        # --- path: tests/test_views.py ---
        from fw.cases import SimpleTestCase

        class ViewTests(SimpleTestCase):
            def test_login(self):
                self.client.force_login(None)
                self.other.force_login(None)
        """,
        [
            "fw/cases.SimpleTestCase._pre_setup(0) -> fw/client.Client [exact]",
            "fw/cases.SimpleTestCase.not_a_classmethod(0) -> fw/client.Client [exact]",
            # through the class attribute set in the base's classmethod; Other.force_login never
            "tests/test_views.ViewTests.test_login(0) -> fw/client.Client.force_login(1) [inferred]",
        ],
    )
