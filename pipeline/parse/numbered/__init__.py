"""The engine of numbered rules documents: numbering schemes (`numbers`), the reference
grammar (`references`), version and date statements (`statements`), PDF layout and
wrapping (`layout`), drafts and labels (`records`), the line reader (`engine`) and the
finishing step that enforces the record contract (`finish`)."""
