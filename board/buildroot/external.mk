include $(sort $(wildcard $(BR2_EXTERNAL_NPURUN_PATH)/package/*/*.mk))
