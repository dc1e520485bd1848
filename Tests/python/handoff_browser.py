"""Opens an App2App handoff page in headless Chromium (selenium + chromedriver), saves a
screenshot, presses the named button and prints the URL the browser was redirected to.

Usage: handoff_browser.py ONRAMP_URL BUTTON_LABEL SCREENSHOT_PATH
Prints JSON {title, heading, redirect}.
"""
import json
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, label, screenshot = sys.argv[1:4]
driver = chromium.start()
try:
    driver.get(url)
    heading = driver.find_element(By.TAG_NAME, "h1").text
    title = driver.title
    driver.save_screenshot(screenshot)
    button = driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']")
    page = driver.current_url
    button.click()
    # Wait for the form post and its 303 to move the browser off the page (slow under load).
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    redirect = chromium.landed_url(driver)
    print(json.dumps({"title": title, "heading": heading, "redirect": redirect}))
finally:
    driver.quit()
