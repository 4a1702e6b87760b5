"""``self.instance`` of a Django ``ModelForm`` or a DRF ``ModelSerializer`` subclass is an instance of
the model its ``class Meta: model = M`` names (indexer/languages/python/django_models.py, the
``framework_receiver`` hook). The shape of NetBox's ``DeviceForm(TenancyForm, PrimaryModelForm)``,
whose ``clean`` calls ``self.instance.vc_interfaces(...)``. Exact edges, and what must not be linked."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from django.db import models


class Device(models.Model):
    def vc_interfaces(self, if_master=True):
        return []


class Site(models.Model):
    def vc_interfaces(self, if_master=True):
        return []


class Plain:
    def vc_interfaces(self):
        return []
# --- path: app/forms.py ---
from django import forms
from rest_framework import serializers

from app.models import Device, Plain, Site


class BaseForm(forms.ModelForm):
    pass


class DeviceForm(BaseForm):
    class Meta:
        model = Device
        fields = ["name"]

    def clean(self):
        self.instance.vc_interfaces(if_master=False)


class StrictDeviceForm(DeviceForm):
    def save(self, commit=True):
        self.instance.vc_interfaces()


class SiteSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = Site
        fields = ["id"]

    def validate(self, data):
        self.instance.vc_interfaces()
        return data


class PlainForm(forms.Form):
    class Meta:
        model = Device

    def clean(self):
        self.instance.vc_interfaces()


class NotAModel(forms.ModelForm):
    class Meta:
        model = Plain

    def clean(self):
        self.instance.vc_interfaces()


class OwnInstance(forms.ModelForm):
    class Meta:
        model = Device

    def __init__(self, thing):
        self.instance = thing

    def clean(self):
        self.instance.vc_interfaces()
"""


def test_self_instance_of_a_model_form_or_serializer_is_its_meta_model():
    # DeviceForm: its own Meta through a repository base; StrictDeviceForm: the parent's Meta; a
    # HyperlinkedModelSerializer's Meta. Negatives: a plain Form (no ModelForm), a Meta model that
    # is no Django model, and a form assigning `self.instance` itself bind nothing by this rule
    assert [e for e in edges(resolve_fixture(FIXTURE)) if e.startswith("app/forms.")] == [
        "app/forms.DeviceForm.clean(0) -> app/models.Device.vc_interfaces(1) [inferred]",
        "app/forms.SiteSerializer.validate(1) -> app/models.Site.vc_interfaces(1) [inferred]",
        "app/forms.StrictDeviceForm.save(1) -> app/models.Device.vc_interfaces(1) [inferred]",
    ]
